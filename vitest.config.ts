import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: files run in two workers at most so ffmpeg and ONNX work inside tests is not starved.
    maxWorkers: 2,
    isolate: false,
    globalSetup: ['test/support/global-setup.ts'],
  },
});
