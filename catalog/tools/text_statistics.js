// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function text_statistics(args) {
  const { text } = args;
  const top = args.top_words ?? 10;
  if (typeof text !== "string") throw new Error("text must be a string");
  if (text.length > 2_000_000) throw new Error("text is longer than 2,000,000 characters");
  if (!Number.isInteger(top) || top < 0 || top > 100)
    throw new Error("top_words must be an integer from 0 to 100");
  const words = text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu) ?? [];
  const sentences = text.split(/(?<=[.!?…])\s+/u).filter((s) => /[\p{L}\p{N}]/u.test(s));
  const paragraphs = text.split(/\n\s*\n/).filter((p) => p.trim() !== "");
  const stopWords = new Set(
    "a an and are as at be but by for from has have he her his i in is it its of on or our she that the their they this to was we were will with you your".split(
      " ",
    ),
  );
  const counts = new Map();
  for (const w of words) {
    const key = w.toLowerCase();
    if (!stopWords.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const topWords = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([word, count]) => ({ word, count }));
  const letters = words.reduce((n, w) => n + w.length, 0);
  const round = (x) => Math.round(x * 100) / 100;
  return {
    characters: [...text].length,
    characters_without_spaces: [...text.replace(/\s/g, "")].length,
    words: words.length,
    unique_words: new Set(words.map((w) => w.toLowerCase())).size,
    sentences: sentences.length,
    paragraphs: paragraphs.length,
    lines: text === "" ? 0 : text.split(/\r\n|\r|\n/).length,
    average_word_length: words.length ? round(letters / words.length) : 0,
    average_sentence_words: sentences.length ? round(words.length / sentences.length) : 0,
    // 238 words per minute: the average silent reading speed for English non-fiction (Brysbaert, 2019).
    reading_time_minutes: round(words.length / 238),
    top_words: topWords,
  };
}
