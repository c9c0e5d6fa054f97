/** Runs once before the suite: nothing shared yet beyond making sure temp roots exist. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export default function setup(): void {
  mkdirSync(join(process.cwd(), 'test', '.tmp'), { recursive: true });
}
