// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function github_repo_info(args, ctx) {
  const repo =
    typeof args.repo === "string"
      ? args.repo
          .trim()
          .replace(/^https?:\/\/github\.com\//, "")
          .replace(/\.git$|\/$/g, "")
      : "";
  if (!/^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/.test(repo))
    throw new Error(`repo must be "owner/name" (or a github.com URL), got ${JSON.stringify(args.repo)}`);
  let response;
  try {
    // Unauthenticated: 60 requests per hour per IP, which the rate-limit answer below reports.
    response = await ctx.fetch(`https://api.github.com/repos/${repo}`, {
      headers: { accept: "application/vnd.github+json", "user-agent": "switchboard-catalog" },
    });
  } catch (error) {
    throw new Error(`could not reach api.github.com (offline or blocked?): ${error.message}`);
  }
  if (response.status === 404) throw new Error(`GitHub has no public repository ${repo}`);
  if (response.status === 403 || response.status === 429)
    throw new Error(
      `GitHub rate limit reached (HTTP ${response.status}); try again after ${response.headers["x-ratelimit-reset"] ? new Date(Number(response.headers["x-ratelimit-reset"]) * 1000).toISOString() : "a while"}`,
    );
  if (!response.ok) throw new Error(`api.github.com answered HTTP ${response.status}`);
  const r = await response.json();
  return {
    full_name: r.full_name,
    description: r.description ?? null,
    stars: r.stargazers_count,
    forks: r.forks_count,
    open_issues: r.open_issues_count,
    language: r.language ?? null,
    license: r.license?.spdx_id ?? null,
    default_branch: r.default_branch,
    archived: r.archived === true,
    pushed_at: r.pushed_at,
    url: r.html_url,
  };
}
