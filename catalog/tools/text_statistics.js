// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function text_statistics(args) {
  const { text } = args;
  const top = args.top_words ?? 10;
  if (typeof text !== "string") throw new Error("text must be a string");
  if (text.length > 500_000) throw new Error("text is longer than 500,000 characters");
  if (!Number.isInteger(top) || top < 0 || top > 100)
    throw new Error("top_words must be an integer from 0 to 100");
  // Counted with a few linear passes, no per-character arrays: a long book must stay well inside the
  // sandbox's deadline.
  const words = text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
  const sentences = text.split(/[.!?…]+(?:\s+|$)/).filter((s) => /[\p{L}\p{N}]/u.test(s)).length;
  const paragraphs = text.split(/\n\s*\n/).filter((p) => p.trim() !== "").length;
  const stopWords = new Set(
    "a an and are as at be but by for from has have he her his i in is it its of on or our she that the their they this to was we were will with you your".split(
      " ",
    ),
  );
  const counts = new Map();
  let letters = 0;
  for (const w of words) {
    const key = w.toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + 1);
    letters += w.length;
  }
  const topWords = [...counts.entries()]
    .filter(([word]) => !stopWords.has(word))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([word, count]) => ({ word, count }));
  const surrogatePairs = (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g) ?? []).length;
  const characters = text.length - surrogatePairs;
  const spaces = (text.match(/\s/g) ?? []).length;
  const round = (x) => Math.round(x * 100) / 100;
  return {
    characters,
    characters_without_spaces: characters - spaces,
    words: words.length,
    unique_words: counts.size,
    sentences,
    paragraphs,
    lines: text === "" ? 0 : text.split(/\r\n|\r|\n/).length,
    average_word_length: words.length ? round(letters / words.length) : 0,
    average_sentence_words: sentences ? round(words.length / sentences) : 0,
    // 238 words per minute: the average silent reading speed for English non-fiction (Brysbaert, 2019).
    reading_time_minutes: round(words.length / 238),
    top_words: topWords,
  };
}
