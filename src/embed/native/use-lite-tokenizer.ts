// USE-lite's SentencePiece tokenizer: the best-scoring split of the text into vocabulary pieces, a port of
// the one in @energetic-ai/embeddings (Apache-2.0, after tfjs-models' universal-sentence-encoder). That one is
// only reachable by loading tfjs, which the native embedder exists to avoid; the tests check that both give
// the same ids. Its quirks are kept on purpose (piece lengths in UTF-16 units when walking back, a best score
// of exactly 0 counting as unset, runs of unknown symbols merged into one id 0), as ids must match exactly.

const WORD_START = "\u2581";
/** The first ids are control symbols (unknown, <s>, </s>, extra ids) that never match text. */
const RESERVED_SYMBOLS = 6;
const UNKNOWN_ID = 0;

interface TrieNode {
  children: Map<string, TrieNode>;
  /** Set where a vocabulary piece ends. */
  piece?: { id: number; score: number; symbols: number };
}

export class UseLiteTokenizer {
  private readonly root: TrieNode = { children: new Map() };
  private readonly pieceLengths: number[];

  constructor(vocabulary: [string, number][]) {
    this.pieceLengths = vocabulary.map(([piece]) => piece.length);
    for (let id = RESERVED_SYMBOLS; id < vocabulary.length; id++) {
      const [piece, score] = vocabulary[id] as [string, number];
      let node = this.root;
      const symbols = [...piece];
      for (const symbol of symbols) {
        let child = node.children.get(symbol);
        if (!child) {
          child = { children: new Map() };
          node.children.set(symbol, child);
        }
        node = child;
      }
      node.piece = { id, score, symbols: symbols.length };
    }
  }

  encode(text: string): number[] {
    const normalised = text.normalize("NFKC");
    const input = normalised.length > 0 ? WORD_START + normalised.replace(/ /g, WORD_START) : normalised;
    const symbols = [...input];
    const n = symbols.length;
    // arrivals[end]: the pieces that end at `end`, in order of their start, as the original lattice has them.
    const arrivals: { start: number; id: number; score: number }[][] = Array.from(
      { length: n + 1 },
      () => [],
    );
    for (let start = 0; start < n; start++) {
      let node = this.root.children.get(symbols[start] as string);
      let matched = false;
      for (let end = start + 1; node; end++) {
        if (node.piece) {
          arrivals[start + node.piece.symbols]?.push({ start, id: node.piece.id, score: node.piece.score });
          matched = true;
        }
        node = end < n ? node.children.get(symbols[end] as string) : undefined;
      }
      if (!matched) arrivals[start + 1]?.push({ start, id: UNKNOWN_ID, score: 0 });
    }
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    for (let end = 0; end <= n; end++)
      for (const { start, id, score } of arrivals[end] as { start: number; id: number; score: number }[]) {
        const total = score + (best[start] as number);
        if (best[end] === 0 || total >= (best[end] as number)) {
          best[end] = total;
          words[end] = id;
        }
      }
    const reversed: number[] = [];
    let previousUnknown = false;
    for (let end = n; end > 0; end -= this.pieceLengths[words[end] as number] as number) {
      const id = words[end] as number;
      if (!(previousUnknown && id === UNKNOWN_ID)) reversed.push(id);
      previousUnknown = id === UNKNOWN_ID;
    }
    return reversed.reverse();
  }
}
