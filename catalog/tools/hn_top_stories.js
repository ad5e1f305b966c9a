// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function hn_top_stories(args, ctx) {
  const limit = args.limit ?? 10;
  const list = args.list ?? "top";
  if (!Number.isInteger(limit) || limit < 1 || limit > 30)
    throw new Error("limit must be an integer from 1 to 30");
  if (!["top", "new", "best", "ask", "show"].includes(list))
    throw new Error('list must be "top", "new", "best", "ask" or "show"');
  const get = async (url) => {
    let response;
    try {
      response = await ctx.fetch(url);
    } catch (error) {
      throw new Error(`could not reach the Hacker News API (offline or blocked?): ${error.message}`);
    }
    if (!response.ok) throw new Error(`the Hacker News API answered HTTP ${response.status}`);
    return response.json();
  };
  const ids = (await get(`https://hacker-news.firebaseio.com/v0/${list}stories.json`)).slice(0, limit);
  // The official API returns ids only; the items are fetched concurrently.
  const items = await Promise.all(
    ids.map((id) => get(`https://hacker-news.firebaseio.com/v0/item/${id}.json`)),
  );
  return {
    list,
    stories: items
      .filter((item) => item && !item.deleted && !item.dead)
      .map((item, k) => ({
        rank: k + 1,
        title: item.title,
        url: item.url ?? `https://news.ycombinator.com/item?id=${item.id}`,
        points: item.score ?? 0,
        comments: item.descendants ?? 0,
        by: item.by ?? null,
        posted_at: new Date(item.time * 1000).toISOString(),
        discussion_url: `https://news.ycombinator.com/item?id=${item.id}`,
      })),
    source: "hacker-news.firebaseio.com",
  };
}
