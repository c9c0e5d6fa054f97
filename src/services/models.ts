import { rmSync } from 'node:fs';
import type { CapabilityName } from '../ml/capabilities.js';
import type { CapabilityStatus } from '../ml/pulled-model.js';
import { importModelArchive } from '../ml/registry/archive.js';
import { ModelImportError } from '../ml/registry/import.js';
import { forgetSharedModels } from '../ml/registry/local.js';
import { getModel, UnknownModelError, type Manifest, type ModelEntry } from '../ml/registry/manifest.js';
import { modelDir, modelStatus } from '../ml/registry/status.js';
import type { TaskRepository } from '../store/tasks.js';
import type { Caller } from './caller.js';
import { notFound, Problem } from './errors.js';
import type { TaskService, TaskView } from './tasks.js';
import { msg } from '../messages/index.js';

/** What a pulled model is for (the manifest's list), for the API's schema. */
export { CAPABILITIES } from '../ml/registry/manifest.js';

/** A pulled model as the Models view and GET /models show it. */
export interface ModelView {
  id: string;
  capability: ModelEntry['capability'];
  repo: string;
  license: string;
  /** Who made the model and its data, as its licence asks to be credited. */
  credit?: string;
  /** The capability's default model (what `vidx models pull` takes without ids). */
  default: boolean;
  state: 'installed' | 'partial' | 'missing';
  /** Bytes the model takes when installed (approximate when the manifest knows only rounded sizes). */
  size_bytes: number;
  bytes_on_disk: number;
  /** The model the capability uses now. */
  in_use: boolean;
}

/** Input of a model pull task. */
export interface ModelPullData {
  model_id: string;
}

/**
 * The models vidx pulls (the manifest of `vidx models`), seen and changed by admins: their install state
 * and size, a pull as a task with progress, an import of an archive brought from elsewhere, and removal.
 * @example
 * models.list().models.find((m) => m.capability === 'asr')?.state; // 'missing'
 */
export class ModelService {
  constructor(
    private readonly manifest: Manifest,
    private readonly modelsDir: string,
    private readonly capabilities: () => Record<CapabilityName, CapabilityStatus>,
    private readonly tasks: TaskService,
    private readonly taskRepo: Pick<TaskRepository, 'list'>,
  ) {}

  /** Every pulled model with its state, and every capability (shipped ones included) with its model. */
  list(): { models: ModelView[]; capabilities: Record<CapabilityName, CapabilityStatus> } {
    const caps = this.capabilities();
    const models = this.manifest.models.map((entry) => {
      const s = modelStatus(entry, this.modelsDir);
      return {
        id: entry.id,
        capability: entry.capability,
        repo: entry.repo,
        license: entry.license,
        ...(entry.credit ? { credit: entry.credit } : {}),
        default: entry.default === true,
        state: s.state,
        size_bytes: s.expectedBytes,
        bytes_on_disk: s.bytesOnDisk,
        in_use: caps[entry.capability]?.model === entry.id && caps[entry.capability]?.available === true,
      };
    });
    return { models, capabilities: caps };
  }

  /** Queues a pull of one model (a task with progress); an installed model's pull completes at once. */
  pull(caller: Caller, id: string): TaskView {
    this.entry(id);
    const running = this.pullsUnderway(id);
    if (running) return running;
    return this.tasks.create(caller, 'model_pull', { model_id: id } satisfies ModelPullData);
  }

  /** Deletes a model's files; 409 while a pull of it is queued or running. */
  remove(id: string): ModelView {
    const entry = this.entry(id);
    if (this.pullsUnderway(id)) throw new Problem('conflict', msg('model_being_pulled', { id }));
    rmSync(modelDir(this.modelsDir, entry), { recursive: true, force: true });
    // Sessions loaded from the removed files are let go; the capability falls back (or off) at its next use.
    forgetSharedModels();
    return this.list().models.find((m) => m.id === id)!;
  }

  /**
   * Installs a model brought from elsewhere as a tar archive (`vidx models export`, or a tar of the hub's
   * repository folder), checked against the manifest first. A bad file is a 422 naming it (code
   * `import_missing_file`, `import_wrong_size`, `import_wrong_hash`, `import_unsafe_path`, …).
   * @example
   * await models.importArchive(upload.path); // the model as it is now (installed)
   */
  async importArchive(archive: string, modelId?: string): Promise<ModelView> {
    if (modelId !== undefined) this.entry(modelId);
    if (modelId !== undefined && this.pullsUnderway(modelId)) throw new Problem('conflict', msg('model_being_pulled', { id: modelId }));
    try {
      const { modelId: id } = await importModelArchive(archive, { manifest: this.manifest, modelsDir: this.modelsDir, modelId });
      // Sessions of an earlier copy of the model are let go, as after a removal.
      forgetSharedModels();
      return this.list().models.find((m) => m.id === id)!;
    } catch (e) {
      if (e instanceof ModelImportError) throw new Problem('invalid', e.text, [], e.text.key);
      throw e;
    }
  }

  private entry(id: string): ModelEntry {
    try {
      return getModel(this.manifest, id);
    } catch (e) {
      if (e instanceof UnknownModelError) throw notFound('model', id);
      throw e;
    }
  }

  /** A queued or running pull of the model, as its task. */
  private pullsUnderway(id: string): TaskView | null {
    for (const status of ['running', 'queued'] as const) {
      const { rows } = this.taskRepo.list({ owner: null, status, kind: 'model_pull', limit: 100, offset: 0 });
      const row = rows.find((r) => (JSON.parse(r.data) as ModelPullData).model_id === id);
      if (row) return this.tasks.view(row);
    }
    return null;
  }
}
