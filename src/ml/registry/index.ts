/** Model registry: manifest, install status, pulls from the hub, and the `models` CLI. */
export * from './manifest.js';
export * from './status.js';
export * from './pull.js';
export * from './download.js';
export * from './local.js';
export { runModelsCommand, renderList, MODELS_EXIT, type ModelsCommandIo } from './cli.js';
export { SESSION_OPTIONS } from './transformers.js';
export * from './import.js';
export * from './archive.js';
