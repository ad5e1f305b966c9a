// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function npm_package_info(args, ctx) {
  const { name } = args;
  if (
    typeof name !== "string" ||
    !/^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/.test(name) ||
    name.length > 214
  )
    throw new Error(`"${name}" is not a valid npm package name`);
  const version = args.version ?? "latest";
  if (typeof version !== "string" || !/^[\w.+-]{1,64}$/.test(version))
    throw new Error("version must be a version or dist-tag such as 1.2.3 or latest");
  const url = `https://registry.npmmirror.com/${name.replace("/", "%2F")}/${encodeURIComponent(version)}`;
  let response;
  try {
    response = await ctx.fetch(url, { headers: { accept: "application/json" } });
  } catch (error) {
    throw new Error(
      `could not reach the npmmirror.com registry mirror (offline or blocked?): ${error.message}`,
    );
  }
  if (response.status === 404)
    throw new Error(`the npmmirror.com mirror has no package "${name}" with version or tag "${version}"`);
  if (!response.ok) throw new Error(`the npmmirror.com mirror answered HTTP ${response.status} for ${name}`);
  const manifest = await response.json();
  const repository =
    typeof manifest.repository === "string" ? manifest.repository : (manifest.repository?.url ?? null);
  return {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description ?? null,
    license: typeof manifest.license === "string" ? manifest.license : null,
    homepage: manifest.homepage ?? null,
    repository,
    dependencies: Object.keys(manifest.dependencies ?? {}),
    engines: manifest.engines ?? {},
    deprecated: typeof manifest.deprecated === "string" ? manifest.deprecated : null,
    source: "registry.npmmirror.com",
  };
}
