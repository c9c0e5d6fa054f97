/** The vidx version, reported by /health, the OpenAPI document and `vidx --version`. */
export const VERSION = '0.1.0';
