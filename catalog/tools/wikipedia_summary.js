// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function wikipedia_summary(args, ctx) {
  const { topic } = args;
  const language = args.language ?? "en";
  if (typeof topic !== "string" || topic.trim() === "") throw new Error("topic must be a non-empty string");
  if (!/^[a-z]{2}$/.test(language)) throw new Error("language must be a two-letter Wikipedia language code");
  const title = encodeURIComponent(topic.trim().replace(/\s+/g, "_"));
  let response;
  try {
    response = await ctx.fetch(
      `https://${language}.wikipedia.org/api/rest_v1/page/summary/${title}?redirect=true`,
      {
        headers: { accept: "application/json", "api-user-agent": "switchboard-catalog" },
      },
    );
  } catch (error) {
    throw new Error(`could not reach ${language}.wikipedia.org (offline or blocked?): ${error.message}`);
  }
  if (response.status === 404)
    throw new Error(`${language}.wikipedia.org has no article titled "${topic}"; try a more exact title`);
  if (!response.ok) throw new Error(`${language}.wikipedia.org answered HTTP ${response.status}`);
  const page = await response.json();
  return {
    title: page.title,
    description: page.description ?? null,
    summary: page.extract,
    disambiguation: page.type === "disambiguation",
    url: page.content_urls?.desktop?.page ?? `https://${language}.wikipedia.org/wiki/${title}`,
    last_modified: page.timestamp ?? null,
    source: `${language}.wikipedia.org`,
  };
}
