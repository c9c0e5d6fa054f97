import { join } from 'node:path';
import { CAPABILITIES, type Manifest, type ModelEntry } from '../../ml/registry/manifest.js';
import { modelDir } from '../../ml/registry/status.js';
import type { ModelSet } from '../../ml/model-set.js';

/**
 * The models a server analyses with that a worker must pull to take its jobs (`vidx worker --pull-models`):
 * the manifest entries its pulled capabilities use now, and their files, laid out the way a model hub serves
 * them (`<repo>/resolve/<revision>/<path>`), so a worker pulls from its server as `vidx models pull` pulls
 * from the hub: resumed, checked, without the internet.
 * @example
 * const pack = new ModelPack(manifest, modelsDir, () => models.capabilities());
 * pack.entries().map((e) => e.id); // ['whisper-base', 'e5-small']
 * pack.file('Xenova/whisper-base/resolve/abc/onnx/encoder_model.onnx'); // '/data/models/Xenova/whisper-base/onnx/encoder_model.onnx'
 */
export class ModelPack {
  constructor(
    private readonly manifest: Manifest,
    private readonly modelsDir: string,
    private readonly models: () => ModelSet,
  ) {}

  /** The entries the server's pulled capabilities use now. */
  entries(): ModelEntry[] {
    const set = this.models();
    const inUse = new Set(CAPABILITIES.map((c) => (set[c]?.available ? set[c]?.model : undefined)).filter((m): m is string => m !== undefined));
    return this.manifest.models.filter((m) => inUse.has(m.id));
  }

  /** The file a hub path names (`<owner>/<name>/resolve/<revision>/<path>`), when it belongs to a model in use. */
  file(hubPath: string): string | null {
    const m = /^([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(hubPath);
    if (!m) return null;
    const [, repo, revision, path] = m;
    const entry = this.entries().find((e) => e.repo === repo && e.revision === revision);
    if (!entry?.files.some((f) => f.path === path)) return null;
    return join(modelDir(this.modelsDir, entry), path!);
  }
}
