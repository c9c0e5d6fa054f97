import { z } from '@hono/zod-openapi';
import { CAPABILITIES } from '../../services/models.js';

/** A pulled model as GET /models shows it. */
export const ModelInfo = z
  .object({
    id: z.string().openapi({ example: 'whisper-base' }),
    capability: z.enum(CAPABILITIES),
    repo: z.string().openapi({ description: 'Where it is pulled from (the model hub repository)' }),
    license: z.string(),
    credit: z.string().optional().openapi({ description: 'Who made the model and its training data, as its licence asks to be credited' }),
    default: z.boolean().openapi({ description: "The capability's default model" }),
    state: z.enum(['installed', 'partial', 'missing']),
    size_bytes: z.number().int().openapi({ description: 'Bytes it takes when installed' }),
    bytes_on_disk: z.number().int(),
    in_use: z.boolean().openapi({ description: 'The model its capability uses now' }),
  })
  .openapi('ModelInfo');

/** A capability and the model it uses (pulled ones and the ones vidx ships: OCR, VAD, face detection). */
export const CapabilityInfo = z
  .object({ available: z.boolean(), model: z.string().optional(), reason: z.string().optional().openapi({ description: 'Why it is not available, with what to do' }) })
  .openapi('CapabilityInfo');

export const ModelList = z
  .object({ models: z.array(ModelInfo), capabilities: z.record(z.string(), CapabilityInfo) })
  .openapi('ModelList');

export const ModelParams = z.object({
  model_id: z.string().min(1).max(100).openapi({ param: { name: 'model_id', in: 'path' }, example: 'whisper-base' }),
});

/** POST /models/import: the model archive as a file part, named by `archive`. */
export const ModelImportBody = z
  .object({
    archive: z.string().min(1).max(255).openapi({ description: 'The file part holding the archive (.tar or .tar.gz: `vidx models export`, or a tar of the hub repository folder), by its file name or part name', example: 'archive' }),
    model_id: z.string().min(1).max(100).optional().openapi({ description: 'Which model it is; found from the archive (its label, or which manifest model its files fit) when left out', example: 'whisper-base' }),
  })
  .strict()
  .openapi('ModelImportRequest');
