/**
 * The facts behind a search answer's notices: which model is missing, and whether the searched items hold
 * speech that was never transcribed. Searches run many times a second, so both facts are kept for a few
 * seconds (a pull or a newly stored item shows within that time; a stored item of the collection at once).
 */
import type { CapabilityStatus } from '../../ml/pulled-model.js';
import type { Capability } from '../../ml/registry/manifest.js';
import type { AnalysisWarnings, WarnedItems } from '../../store/analysis-warnings.js';
import { SPEECH_NOT_TRANSCRIBED, SPEECH_NOT_TRANSCRIBED_KEY } from '../../analysis/speech-warning.js';
import type { NoticeGaps } from './notices.js';

/** What one search knows when it answers. */
export interface GapQuery {
  collectionPk: number;
  /** The one item searched (`media_id`), else null for the whole collection. */
  itemPk: number | null;
  /** The query has words to look for. */
  words: boolean;
  /** Some frame vectors were searched by the query's words (an image–text model is usable here). */
  framesSearched: boolean;
}

/** How long a fact is trusted before it is looked up again. */
const KEEP_MS = 10_000;

/** How many of the items with untranscribed speech a notice names (the rest it counts). */
export const NAMED_ITEMS = 3;

const NONE: WarnedItems = { total: 0, items: [] };

/** The warning of speech never transcribed: keyed, or in words in items stored before warnings were keyed. */
const SPEECH_WARNING = { key: SPEECH_NOT_TRANSCRIBED_KEY, prefix: SPEECH_NOT_TRANSCRIBED };

interface Kept<T> {
  value: T;
  at: number;
}

/**
 * Looks the gaps up, cached.
 * @example
 * const gaps = new SearchGaps(store.warnings, (c) => pulledModel(modelsDir, c, { manifest }));
 * gaps.of({ collectionPk: 1, itemPk: null, words: true, framesSearched: false });
 * // { words: true, imageTextModel: 'clip-vit-base-patch32', speechModel: null, untranscribed: null }
 */
export class SearchGaps {
  private readonly models = new Map<Capability, Kept<CapabilityStatus>>();
  private readonly untranscribed = new Map<number, Kept<WarnedItems>>();

  constructor(
    private readonly warnings: AnalysisWarnings,
    private readonly capability: (name: Capability) => CapabilityStatus,
    private readonly now: () => number = Date.now,
  ) {}

  of(q: GapQuery): NoticeGaps {
    if (!q.words) return { words: false, imageTextModel: null, speechModel: null, untranscribed: null };
    const untranscribed = this.speechGap(q);
    const speech = untranscribed.total > 0;
    return { words: true, imageTextModel: q.framesSearched ? null : this.missing('image_text'), speechModel: speech ? this.modelOf('asr') : null, untranscribed: speech ? untranscribed : null };
  }

  /** Forgets what is known of a collection (an item was stored or removed). */
  forget(collectionPk: number): void {
    this.untranscribed.delete(collectionPk);
  }

  /** The items searched that hold speech never transcribed: a few by name, and how many. */
  private speechGap(q: GapQuery): WarnedItems {
    // One item is a primary-key lookup: not worth keeping.
    if (q.itemPk !== null) return this.warnings.some(q.collectionPk, q.itemPk, SPEECH_WARNING, NAMED_ITEMS);
    const kept = this.untranscribed.get(q.collectionPk);
    if (kept && this.now() - kept.at < KEEP_MS) return kept.value;
    const found = this.warnings.some(q.collectionPk, null, SPEECH_WARNING, NAMED_ITEMS);
    const value = found.total ? found : NONE;
    this.untranscribed.set(q.collectionPk, { value, at: this.now() });
    return value;
  }

  /** The capability's model id when it is not installed, else null. */
  private missing(name: Capability): string | null {
    const status = this.status(name);
    return status.available ? null : (status.model ?? name);
  }

  /** The capability's model id (to install or reinstall), whatever its state. */
  private modelOf(name: Capability): string {
    return this.status(name).model ?? name;
  }

  private status(name: Capability): CapabilityStatus {
    const kept = this.models.get(name);
    if (kept && this.now() - kept.at < KEEP_MS) return kept.value;
    const value = this.capability(name);
    this.models.set(name, { value, at: this.now() });
    return value;
  }
}
