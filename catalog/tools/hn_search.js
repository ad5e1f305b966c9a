// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function hn_search(args, ctx) {
  const { query } = args;
  const limit = args.limit ?? 10;
  const sort = args.sort ?? "relevance";
  if (typeof query !== "string" || query.trim() === "") throw new Error("query must be a non-empty string");
  if (!Number.isInteger(limit) || limit < 1 || limit > 50)
    throw new Error("limit must be an integer from 1 to 50");
  if (sort !== "relevance" && sort !== "date") throw new Error('sort must be "relevance" or "date"');
  const endpoint = sort === "date" ? "search_by_date" : "search";
  let response;
  try {
    response = await ctx.fetch(
      `https://hn.algolia.com/api/v1/${endpoint}?query=${encodeURIComponent(query)}&tags=story&hitsPerPage=${limit}`,
    );
  } catch (error) {
    throw new Error(`could not reach hn.algolia.com (offline or blocked?): ${error.message}`);
  }
  if (!response.ok) throw new Error(`hn.algolia.com answered HTTP ${response.status}`);
  const body = await response.json();
  return {
    query,
    total: body.nbHits,
    stories: body.hits.map((hit) => ({
      title: hit.title,
      url: hit.url ?? null,
      points: hit.points ?? 0,
      comments: hit.num_comments ?? 0,
      by: hit.author ?? null,
      posted_at: hit.created_at,
      discussion_url: `https://news.ycombinator.com/item?id=${hit.objectID}`,
    })),
  };
}
