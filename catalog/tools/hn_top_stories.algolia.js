// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function hn_top_stories(args, ctx) {
  // Secondary provider: the Algolia HN index. It knows the front page (top) and the newest stories.
  const limit = args.limit ?? 10;
  const list = args.list ?? "top";
  if (!Number.isInteger(limit) || limit < 1 || limit > 30)
    throw new Error("limit must be an integer from 1 to 30");
  const tags = { top: "front_page", new: "story", ask: "ask_hn", show: "show_hn" }[list];
  if (!tags) throw new Error(`the Algolia fallback cannot list "${list}" stories`);
  const endpoint = list === "top" ? "search" : "search_by_date";
  let response;
  try {
    response = await ctx.fetch(`https://hn.algolia.com/api/v1/${endpoint}?tags=${tags}&hitsPerPage=${limit}`);
  } catch (error) {
    throw new Error(`could not reach hn.algolia.com (offline or blocked?): ${error.message}`);
  }
  if (!response.ok) throw new Error(`hn.algolia.com answered HTTP ${response.status}`);
  const body = await response.json();
  const hits = list === "top" ? [...body.hits].sort((a, b) => (b.points ?? 0) - (a.points ?? 0)) : body.hits;
  return {
    list,
    stories: hits.slice(0, limit).map((hit, k) => ({
      rank: k + 1,
      title: hit.title,
      url: hit.url ?? `https://news.ycombinator.com/item?id=${hit.objectID}`,
      points: hit.points ?? 0,
      comments: hit.num_comments ?? 0,
      by: hit.author ?? null,
      posted_at: hit.created_at,
      discussion_url: `https://news.ycombinator.com/item?id=${hit.objectID}`,
    })),
    source: "hn.algolia.com",
  };
}
