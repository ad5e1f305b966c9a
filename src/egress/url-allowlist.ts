// A tool's own allowlist of URL prefixes (ctx.fetch grants, browser grants): which URLs it names, apart from
// the addresses behind them, which the egress policy checks after DNS.

/**
 * Whether `url` lies under one of the allowed prefixes. A prefix that does not end in "/" must be followed
 * by "/", "?", "#" or nothing, so "https://api.example.com/v1" does not admit "https://api.example.com/v10".
 */
export function isAllowedUrl(url: URL, allow: readonly string[]): boolean {
  if (url.username !== "" || url.password !== "") return false;
  const href = url.href;
  return allow.some((prefix) => {
    const normal = new URL(prefix).href;
    if (!href.startsWith(normal)) return false;
    if (normal.endsWith("/") || href.length === normal.length) return true;
    return "/?#".includes(href.charAt(normal.length));
  });
}
