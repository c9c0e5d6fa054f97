/** Sites whose video URLs are pages that only yt-dlp can turn into a media file. */
const VIDEO_HOSTS = [
  'youtube.com', 'youtu.be', 'youtube-nocookie.com', 'vimeo.com', 'dailymotion.com', 'dai.ly', 'twitch.tv',
  'tiktok.com', 'facebook.com', 'fb.watch', 'instagram.com', 'twitter.com', 'x.com', 'reddit.com', 'v.redd.it',
  'bilibili.com', 'b23.tv', 'streamable.com', 'rumble.com', 'soundcloud.com', 'ted.com', 'nicovideo.jp',
  'vk.com', 'ok.ru', 'bitchute.com', 'odysee.com', 'peertube.tv',
];

/**
 * True when the URL's host is (a subdomain of) a known video-sharing site, so the URL goes straight
 * to yt-dlp without a first plain download.
 * @example
 * isVideoSharingUrl(new URL('https://www.youtube.com/watch?v=abc')); // true
 * isVideoSharingUrl(new URL('https://cdn.example.com/clip.mp4'));    // false
 */
export function isVideoSharingUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  return VIDEO_HOSTS.some((d) => host === d || host.endsWith(`.${d}`));
}
