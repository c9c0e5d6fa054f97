import { createHmac, timingSafeEqual } from 'node:crypto';
import { relative, isAbsolute } from 'node:path';

import type { FileLinks } from '../services/file-links.js';
import { systemClock, type WallClock } from '../services/timestamps.js';

/**
 * Turns stored files into URLs a browser can open without the key header: `/files/<path>?exp=&sig=`,
 * signed with HMAC-SHA256 and valid for `ttlSeconds`. The HTTP layer owns the `/files` path; services get
 * this as a {@link FileLinks}.
 * @example
 * const links = new SignedFileLinks('http://127.0.0.1:8484', secret, dataDir);
 * links.file('collections/3/clip/thumb.jpg'); // 'http://127.0.0.1:8484/files/collections/3/clip/thumb.jpg?exp=..&sig=..'
 */
export class SignedFileLinks implements FileLinks {
  constructor(
    private baseUrl: string,
    private readonly secret: Buffer,
    private readonly dataDir: string,
    private readonly ttlSeconds = 24 * 3600,
    private readonly time: WallClock = systemClock,
  ) {}

  /** Set once the server knows its port. */
  setBaseUrl(url: string): void {
    this.baseUrl = url;
  }

  /** The base URL links start with ('' until the server listens). */
  base(): string {
    return this.baseUrl;
  }

  /** The origin signed links point at (the web page allows its pictures and media from there). */
  origin(): string {
    return this.baseUrl ? new URL(this.baseUrl).origin : '';
  }

  /**
   * A signed URL for a file given relative to the data dir (or absolute inside it); null when outside.
   * `forKey` binds the link to the key it is handed to (`&k=`): it stops when that key is revoked (files
   * that belong to no collection, such as an /analyze result's thumbnails).
   */
  file(stored: string, forKey?: string): string | null {
    const rel = isAbsolute(stored) ? relative(this.dataDir, stored) : stored;
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) return null;
    const path = rel.split(/[\\/]/).map(encodeURIComponent).join('/');
    const exp = Math.floor(this.time.now().getTime() / 1000) + this.ttlSeconds;
    const key = forKey ? `&k=${encodeURIComponent(forKey)}` : '';
    return `${this.baseUrl}/files/${path}?exp=${exp}${key}&sig=${this.sign(rel, exp, forKey)}`;
  }

  /** Whether a signature from a `/files/...` request is genuine and unexpired (`key`: its `k`, if any). */
  verify(rel: string, exp: number, sig: string, key?: string): boolean {
    if (!Number.isFinite(exp) || exp < this.time.now().getTime() / 1000) return false;
    const want = Buffer.from(this.sign(rel, exp, key));
    const got = Buffer.from(sig);
    return want.length === got.length && timingSafeEqual(want, got);
  }

  private sign(rel: string, exp: number, key?: string): string {
    return createHmac('sha256', this.secret).update(key ? `${rel}\n${exp}\n${key}` : `${rel}\n${exp}`).digest('base64url');
  }
}
