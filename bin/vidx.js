#!/usr/bin/env node
// Runs the TypeScript CLI from a repository checkout (npx vidx); the packaged binary bundles it instead.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli.ts');
process.exitCode = await runCli(process.argv.slice(2));
