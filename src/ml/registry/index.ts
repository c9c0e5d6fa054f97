/** Model registry: manifest, install status, pulls from the hub, imports and exports (the `models` command is src/cli/models.ts). */
export * from './manifest.js';
export * from './status.js';
export * from './pull.js';
export * from './download.js';
export * from './local.js';
export * from './import.js';
export * from './archive.js';
