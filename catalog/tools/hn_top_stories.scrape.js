// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function hn_top_stories(args, ctx) {
  // Last resort: read the news.ycombinator.com front page itself with host-side CSS selection (ctx.html).
  // Only the front page (top) can be scraped this way; points and comments come from the subtext rows.
  const limit = args.limit ?? 10;
  const list = args.list ?? "top";
  if (!Number.isInteger(limit) || limit < 1 || limit > 30)
    throw new Error("limit must be an integer from 1 to 30");
  const paths = { top: "news", new: "newest", best: "best", ask: "ask", show: "show" };
  if (!Object.hasOwn(paths, list)) throw new Error('list must be "top", "new", "best", "ask" or "show"');
  let response;
  try {
    response = await ctx.fetch(`https://news.ycombinator.com/${paths[list]}`);
  } catch (error) {
    throw new Error(`could not reach news.ycombinator.com (offline or blocked?): ${error.message}`);
  }
  if (!response.ok) throw new Error(`news.ycombinator.com answered HTTP ${response.status}`);
  const page = await response.text();
  const rows = await ctx.html(page, "tr.athing", { attr: "id", limit });
  const titles = await ctx.html(page, "tr.athing .titleline > a", { attr: "href", limit });
  const subtexts = await ctx.html(page, "td.subtext", { limit });
  const number = (text, word) => {
    const m = new RegExp(`(\\d+)\\s*${word}`).exec(text ?? "");
    return m ? Number(m[1]) : 0;
  };
  const stories = titles.map((a, k) => {
    const id = rows[k]?.attrs.id;
    const href = a.attrs.href ?? "";
    const sub = subtexts[k]?.text ?? "";
    return {
      rank: k + 1,
      title: a.text,
      url: href.startsWith("item?id=") ? `https://news.ycombinator.com/${href}` : href,
      points: number(sub, "point"),
      comments: number(sub, "comment"),
      by: /by\s+(\S+)/.exec(sub)?.[1] ?? null,
      posted_at: null,
      discussion_url: id ? `https://news.ycombinator.com/item?id=${id}` : null,
    };
  });
  if (stories.length === 0)
    throw new Error("news.ycombinator.com's page had no stories in the expected layout");
  return { list, stories, source: "news.ycombinator.com (scraped)" };
}
