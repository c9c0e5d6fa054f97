/**
 * The voices of a collection's people (issue 45): the collection's setting (off by default: voiceprints are
 * biometric data; off deletes every one), and a person's voices, each with a few seconds to hear.
 */
import { inTransaction } from '../../store/connection.js';
import type { Repos } from '../../store/index.js';
import type { VoiceTrackView } from '../../store/voices.js';
import type { Caller } from '../caller.js';
import type { CollectionService, Lookup } from '../collections.js';
import type { FileLinks } from '../file-links.js';
import { personIn } from './person-lookup.js';

/** Seconds of a voice's sample: enough to know a voice, short enough to listen to many. */
const SAMPLE_SECONDS = 6;

/** One voice of a person: one speaker of one recording. */
export interface VoiceView {
  voice_id: number;
  media_id: string;
  title: string | null;
  /** The speaker's number inside the recording (its transcript lines carry it). */
  speaker: number;
  seconds: number;
  /** Where the sample is in the recording. */
  sample: { start: number; end: number } | null;
  /** A signed link to the recording with a media fragment (`#t=start,end`): a browser plays just those seconds. */
  sample_url: string | null;
}

/**
 * Voices of people in a collection.
 * @example
 * voices.setting(caller, 'family', true); // { collection_id: 'family', voices: true }
 */
export class VoiceService {
  constructor(
    private readonly store: Repos<'db' | 'faces' | 'items' | 'search' | 'voices'>,
    private readonly collections: CollectionService,
    private readonly links: FileLinks,
  ) {}

  /** Turns voice grouping on or off; off deletes every voiceprint and every person known by voice alone. */
  setting(caller: Caller, collectionId: string, enabled: boolean): { collection_id: string; voices: boolean } {
    const c = this.collections.writable(caller, collectionId);
    inTransaction(this.store.db, () => {
      if (!enabled) this.store.voices.clearCollection(c.pk);
      this.store.voices.setEnabled(c.pk, enabled);
    });
    return { collection_id: c.collection_id, voices: enabled };
  }

  /** A person's voices, by recording. */
  ofPerson(caller: Caller, collectionId: string, personId: string, opts: Lookup = {}): { collection_id: string; person_id: string; voices: VoiceView[] } {
    const c = this.collections.readable(caller, collectionId, opts);
    const p = personIn(this.store.faces, c.pk, personId);
    return { collection_id: c.collection_id, person_id: p.person_id, voices: this.store.voices.tracksOfPerson(p.pk).map((v) => this.view(v)) };
  }

  private view(v: VoiceTrackView): VoiceView {
    const analysis = this.store.search.analysisOf(v.item_pk);
    const sample = sampleOf(v.speaker, analysis?.speakers ?? null);
    const item = this.store.items.byPk(v.item_pk);
    const stored = item?.src ? null : analysis?.stored_file;
    const src = item?.src ?? (stored ? this.links.file(stored) : null);
    return {
      voice_id: v.pk, media_id: v.media_id, title: v.title, speaker: v.speaker, seconds: Math.round(v.seconds * 10) / 10,
      sample, sample_url: src && sample ? `${src}#t=${sample.start},${sample.end}` : null,
    };
  }
}

/** The speaker's longest turn (of the item's turns, JSON), its first seconds. */
function sampleOf(speaker: number, turnsJson: string | null): { start: number; end: number } | null {
  const turns = JSON.parse(turnsJson ?? '[]') as { speaker: number; start: number; end: number }[];
  const own = turns.filter((t) => t.speaker === speaker).sort((a, b) => b.end - b.start - (a.end - a.start));
  const t = own[0];
  if (!t) return null;
  const r = (x: number) => Math.round(x * 10) / 10;
  return { start: r(t.start), end: r(Math.min(t.end, t.start + SAMPLE_SECONDS)) };
}
