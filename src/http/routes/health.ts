import { createRoute, z } from '@hono/zod-openapi';
import type { App, HttpDeps } from '../env.js';
import { CapabilityInfo } from '../schemas/models.js';
import { HealthQueueFields } from '../schemas/workers.js';

const route = createRoute({
  method: 'get',
  path: '/health',
  operationId: 'getHealth',
  tags: ['system'],
  security: [],
  summary: 'Liveness, version and capabilities (no key needed)',
  responses: {
    200: {
      description: 'The server is ready',
      content: {
        'application/json': {
          schema: z
            .object({
              status: z.literal('ok'),
              version: z.string(),
              uptime_seconds: z.number(),
              capabilities: z
                .record(z.string(), CapabilityInfo)
                .openapi({ description: 'Each capability (ocr, vad, asr, image_text, text_embedding, face_detection, …): whether it is available, and why not' }),
              picture_search: z
                .object({
                  fingerprints: z.literal(true).openapi({ description: 'Perceptual fingerprints of keyframes and photos: always on, no model needed' }),
                  image_text: z.boolean().openapi({ description: 'The image-text model (CLIP) adds semantic similarity, fused with the fingerprints' }),
                })
                .openapi({ description: 'vidx extra: what search by picture (POST /search image or like) and duplicates use' }),
              admin_key_file: z
                .string()
                .nullable()
                .optional()
                .openapi({ description: 'Only from a server bound to loopback: where the first admin key was written (null when it came from VIDX_ADMIN_KEY)' }),
              admin_key_source: z
                .enum(['env', 'file', 'existing'])
                .optional()
                .openapi({ description: 'vidx extra, only from a server bound to loopback (for its sign-in page): where the admin key came from: `env` (VIDX_ADMIN_KEY), `file` (admin_key_file) or `existing` (keys made earlier; no file left)' }),
              work: z
                .object({
                  limit: z.number().int().openapi({ description: 'Units of heavy work at once (VIDX_TASK_CONCURRENCY; with a job queue, what its live workers take at once, 0 while none is there or Redis is away)' }),
                  running: z.number().int().openapi({ description: 'Analyses holding a slot now' }),
                  queued: z.number().int().openapi({ description: 'Analyses waiting for their owner’s turn' }),
                  peak: z.number().int().openapi({ description: 'The most that ever ran at once since the start; never above the largest limit plus spare' }),
                  spare: z.number().int().openapi({ description: 'Slots beyond the limit, each lent only to an owner with nothing running while other owners fill every slot (1; 0 with a job queue)' }),
                })
                .openapi({ description: 'vidx extra: the one bound of heavy work (index, analyze, re-index, folder scan files), shared by owners in turn' }),
              answer_model: z
                .object({ loaded: z.boolean().openapi({ description: 'In memory now: loaded on the first question, unloaded after VIDX_ASK_MODEL_IDLE_SECONDS without one' }) })
                .openapi({ description: 'vidx extra: the local model that writes answers of POST /ask (capability `answer`)' }),
              search: z
                .object({
                  threads: z.number().int().openapi({ description: 'Search threads there may be (VIDX_SEARCH_THREADS); 0: every search is answered on the request thread' }),
                  ready: z.number().int().openapi({ description: 'Threads answering searches now: they start before the server listens (and again after one ended); while none is ready, searches are answered on the request thread' }),
                  answered: z.number().int().openapi({ description: 'Searches the threads answered since the start' }),
                })
                .openapi({ description: 'vidx extra: where searches by words are answered' }),
              ...HealthQueueFields,
            })
            .catchall(z.unknown())
            .openapi('Health'),
        },
      },
    },
  },
});

/**
 * GET /health.
 * @example
 * healthRoutes(app, deps); // curl 127.0.0.1:8484/health
 */
export function healthRoutes(app: App, deps: HttpDeps): void {
  const started = Date.now();
  app.openapi(route, (c) =>
    c.json({ status: 'ok' as const, version: deps.version, uptime_seconds: Math.round((Date.now() - started) / 1000), ...deps.health() }, 200),
  );
}
