// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function wikipedia_summary(args, ctx) {
  // Secondary path: the MediaWiki action API (a different service from the REST summary endpoint).
  const { topic } = args;
  const language = args.language ?? "en";
  if (typeof topic !== "string" || topic.trim() === "") throw new Error("topic must be a non-empty string");
  if (!/^[a-z]{2}$/.test(language)) throw new Error("language must be a two-letter Wikipedia language code");
  const url = `https://${language}.wikipedia.org/w/api.php?action=query&format=json&formatversion=2&redirects=1&prop=extracts|info|description&exintro=1&explaintext=1&inprop=url&titles=${encodeURIComponent(topic.trim())}`;
  let response;
  try {
    response = await ctx.fetch(url, { headers: { "api-user-agent": "switchboard-catalog" } });
  } catch (error) {
    throw new Error(`could not reach ${language}.wikipedia.org (offline or blocked?): ${error.message}`);
  }
  if (!response.ok) throw new Error(`${language}.wikipedia.org answered HTTP ${response.status}`);
  const page = (await response.json()).query?.pages?.[0];
  if (!page || page.missing)
    throw new Error(`${language}.wikipedia.org has no article titled "${topic}"; try a more exact title`);
  return {
    title: page.title,
    description: page.description ?? null,
    summary: page.extract ?? "",
    disambiguation: /may refer to:?\s*$/.test(page.extract ?? ""),
    url: page.fullurl,
    last_modified: page.touched ?? null,
    source: `${language}.wikipedia.org`,
  };
}
