// USE-lite's encoder rebuilt as an ONNX graph from the weights of its tfjs graph model. The tfjs graph works on
// sparse token lists (SparseToDense, Where, GatherNd, ScatterNd around every layer); this graph does the same
// arithmetic on a padded [batch, tokens] matrix with a mask, which is what ONNX Runtime runs fast:
//   x = (2·embedding + timing signal) · mask      (the tfjs graph adds the scattered embedding to itself + timing)
//   per layer: x += attention(layer_norm(x)) [+ dense residual in layer 0, where width goes 256 → 512]
//              x += mask · ffn(layer_norm(x))
//   output = tanh(dense(mean of x over the real tokens))
// Tokens are kept as rows of one [batch·tokens, width] matrix, so that each dense layer is one GEMM with its
// bias, and attention is ONNX Runtime's fused MultiHeadAttention (its default scale, 1/√head width, is the
// one the tfjs graph multiplies queries by; checked below). Every size and constant is read from the weights;
// a missing or different one fails the load, and the caller then falls back to tfjs.
import { EmbedError } from "../errors.ts";
import { ONNX_FLOAT, ONNX_INT32, ONNX_INT64, OnnxGraph } from "./onnx-graph.ts";
import type { Weight } from "./tfjs-weights.ts";

const ENCODE = "Encode";
/** The tfjs export names one part of the encoder's weights under each of these prefixes; names are unique without. */
const ENCODER_PREFIX = /^module(_apply_default)?\/Encoder_en\/KonaTransformer\//;
const OPSET = 17;

export interface UseLiteGraph {
  onnx: Uint8Array;
  /** Tokens beyond this many are dropped, as the tfjs graph's ClipToMaxLength does. */
  maxTokens: number;
  dimension: number;
}

export function buildUseLiteGraph(tfjsWeights: Map<string, Weight>): UseLiteGraph {
  const weights = new Map([...tfjsWeights].map(([name, value]) => [name.replace(ENCODER_PREFIX, ""), value]));
  const weight = (name: string): Weight => {
    const found = weights.get(name);
    if (!found)
      throw new EmbedError(`USE-lite weights have no "${name}": not the model layout this converter knows`);
    return found;
  };
  const scalar = (name: string) => weight(name).values[0] as number;

  const g = new OnnxGraph();
  const ids = g.input("ids", ONNX_INT64, ["batch", "tokens"]);
  const mask = g.input("mask", ONNX_FLOAT, ["batch", "tokens"]);
  const maxTokens = scalar("ClipToMaxLength/Less/y");
  const epsilon = scalar(
    `${ENCODE}/TransformerStack/Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`,
  );
  const heads = scalar(
    `${ENCODE}/TransformerStack/Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2`,
  );

  const param = (name: string, dims?: number[]) => {
    const { shape, values } = weight(name);
    return g.floats(name, dims ?? shape, values as Float32Array);
  };
  const dense = (input: string, kernel: string, bias: string, kernelDims?: number[]) =>
    g.node("Gemm", [input, param(kernel, kernelDims), param(bias)]);

  // Shapes: rows = batch·tokens. The mask as a column of rows, and as MultiHeadAttention's key padding mask.
  const batchAndTokens = g.node("Shape", [ids]);
  const asRows = g.ints("as_rows", [-1]);
  const rowMask = g.node("Reshape", [mask, g.ints("as_column", [-1, 1])]);
  const keyPadding = g.node("Cast", [mask], { to: ONNX_INT32 });
  const toSequences = (rows: string, width: number) =>
    g.node("Reshape", [
      rows,
      g.node("Concat", [batchAndTokens, g.ints(`width_${width}`, [width])], { axis: 0 }),
    ]);

  // Token embeddings plus the sinusoid timing signal of each position.
  const embeddings = weight("module/Embeddings_en");
  const width = embeddings.shape[1] as number;
  const embedded = g.node("Gather", [param("module/Embeddings_en"), g.node("Reshape", [ids, asRows])], {
    axis: 0,
  });
  const inverseTimescales = weight(
    `${ENCODE}/TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`,
  ).values as Float32Array;
  if (inverseTimescales.length * 2 !== width)
    throw new EmbedError(
      `USE-lite timing signal has ${inverseTimescales.length * 2} channels, embeddings ${width}`,
    );
  const timing = new Float32Array(maxTokens * width);
  for (let position = 0; position < maxTokens; position++)
    inverseTimescales.forEach((inverse, channel) => {
      const angle = Math.fround(position * inverse);
      timing[position * width + channel] = Math.sin(angle);
      timing[position * width + inverseTimescales.length + channel] = Math.cos(angle);
    });
  const tokenCount = g.node("Shape", [ids], { start: 1, end: 2 });
  const positions = g.node("Slice", [
    g.floats("timing_signal", [maxTokens, width], timing),
    g.ints("zero", [0]),
    tokenCount,
    g.ints("axis_0", [0]),
  ]);
  // [batch, tokens, width] + [tokens, width] broadcasts the positions over the batch; then back to rows.
  const withTiming = g.node("Add", [toSequences(g.node("Add", [embedded, embedded]), width), positions]);
  let x = g.node("Mul", [g.node("Reshape", [withTiming, g.ints("as_rows_of_width", [-1, width])]), rowMask]);

  for (
    let layer = 0;
    weights.has(
      `${ENCODE}/Layer_${layer}/TransformerLayer/MultiheadAttention/qkv_transform_single/kernel/part_0`,
    );
    layer++
  ) {
    const own = `${ENCODE}/Layer_${layer}/TransformerLayer`;
    const stack = `${ENCODE}/TransformerStack/Layer_${layer}/TransformerLayer`;
    const layerNorm = (input: string, prefix: string) =>
      g.node(
        "LayerNormalization",
        [
          input,
          param(`${prefix}/layer_norm_scale/ConcatPartitions/concat`),
          param(`${prefix}/layer_norm_bias/ConcatPartitions/concat`),
        ],
        { axis: -1, epsilon: { float: epsilon } },
      );

    // Self-attention over the real tokens.
    const normed = layerNorm(x, `${own}/layer_prepostprocess/layer_norm`);
    const qkvKernel = `${own}/MultiheadAttention/qkv_transform_single/kernel/part_0`;
    const [inWidth, qkvWidth] = weight(qkvKernel).shape.slice(2) as [number, number];
    const qkv = dense(
      normed,
      qkvKernel,
      `${own}/MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`,
      [inWidth, qkvWidth],
    );
    const splits = Array.from(weight(`${stack}/MultiheadAttention/Const`).values);
    const headWidth = (splits[0] as number) / heads;
    const queryScale = scalar(`${stack}/MultiheadAttention/mul/y`);
    if (Math.abs(queryScale * Math.sqrt(headWidth) - 1) > 1e-6)
      throw new EmbedError(`USE-lite layer ${layer} scales queries by ${queryScale}, not 1/√${headWidth}`);
    const [q, k, v] = g
      .multi("Split", [qkv, g.ints(`split_${layer}`, splits)], 3, { axis: -1 })
      .map((part, index) => toSequences(part, splits[index] as number)) as [string, string, string];
    const context = g.contrib("MultiHeadAttention", [q, k, v, "", keyPadding], { num_heads: heads });
    const outKernel = `${own}/MultiheadAttention/output_transform_single/kernel/part_0`;
    const attended = dense(
      g.node("Reshape", [context, g.ints(`rows_${layer}`, [-1, splits[2] as number])]),
      outKernel,
      `${own}/MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`,
      weight(outKernel).shape.slice(2),
    );
    // Where the layer changes width, the residual goes through a dense projection (applied to real tokens only).
    const residual = weights.has(`${own}/dense/kernel/ConcatPartitions/concat`)
      ? g.node("Mul", [
          dense(
            x,
            `${own}/dense/kernel/ConcatPartitions/concat`,
            `${own}/dense/bias/ConcatPartitions/concat`,
          ),
          rowMask,
        ])
      : x;
    x = g.node("Add", [attended, residual]);

    // Position-wise feed-forward, on real tokens only.
    const ffnIn = layerNorm(x, `${own}/FFN/layer_prepostprocess/layer_norm`);
    const hidden = g.node("Relu", [
      dense(ffnIn, `${stack}/FFN/conv1/Tensordot/Reshape_1`, `${own}/FFN/conv1/bias/ConcatPartitions/concat`),
    ]);
    const ffnOut = dense(
      hidden,
      `${stack}/FFN/conv2/Tensordot/Reshape_1`,
      `${own}/FFN/conv2/bias/ConcatPartitions/concat`,
    );
    x = g.node("Add", [g.node("Mul", [ffnOut, rowMask]), x]);
  }

  // Mean over the real tokens (at least one, as tfjs divides by max(count, 1)), then the tanh layer.
  const hiddenWeights = weight("module/Encoder_en/hidden_layers/tanh_layer_0/weights");
  const modelWidth = hiddenWeights.shape[0] as number;
  const summed = g.node(
    "ReduceSum",
    [toSequences(g.node("Mul", [x, rowMask]), modelWidth), g.ints("axis_tokens", [1])],
    {
      keepdims: 0,
    },
  );
  const count = g.node("Max", [
    g.node("ReduceSum", [mask, g.ints("axis_tokens_count", [1])], { keepdims: 1 }),
    g.scalar("at_least_one", 1),
  ]);
  const pooled = g.node("Div", [summed, count]);
  g.node(
    "Tanh",
    [
      dense(
        pooled,
        "module/Encoder_en/hidden_layers/tanh_layer_0/weights",
        "module/Encoder_en/hidden_layers/tanh_layer_0/bias",
      ),
    ],
    {},
    "embedding",
  );
  const dimension = hiddenWeights.shape[1] as number;
  g.output("embedding", ONNX_FLOAT, ["batch", dimension]);
  return { onnx: g.encode("use-lite", OPSET), maxTokens, dimension };
}
