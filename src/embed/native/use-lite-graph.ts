// USE-lite's encoder rebuilt as an ONNX graph from the weights of its tfjs graph model. The tfjs graph works on
// sparse token lists (SparseToDense, Where, GatherNd, ScatterNd around every layer); this graph does the same
// arithmetic on a padded [batch, tokens] matrix with a mask, which is what ONNX Runtime runs fast:
//   x = (2·embedding + timing signal) · mask      (the tfjs graph adds the scattered embedding to itself + timing)
//   per layer: x += attention(layer_norm(x)) [+ dense residual in layer 0, where width goes 256 → 512]
//              x += mask · ffn(layer_norm(x))
//   output = tanh(dense(mean of x over the real tokens))
// Every size and constant is read from the weights, not assumed; a missing weight fails the load (the caller
// then falls back to tfjs).
import { EmbedError } from "../errors.ts";
import { ONNX_FLOAT, ONNX_INT64, OnnxGraph } from "./onnx-graph.ts";
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
  const floats = (name: string) => weight(name).values as Float32Array;
  const scalar = (name: string) => weight(name).values[0] as number;

  const g = new OnnxGraph();
  const ids = g.input("ids", ONNX_INT64, ["batch", "tokens"]);
  const mask = g.input("mask", ONNX_FLOAT, ["batch", "tokens"]);
  const maxTokens = scalar("ClipToMaxLength/Less/y");
  const epsilon = scalar(
    `${ENCODE}/TransformerStack/Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`,
  );
  const ignorePadding = scalar(
    `${ENCODE}/TransformerStack/Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y`,
  );
  const heads = scalar(
    `${ENCODE}/TransformerStack/Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2`,
  );

  const param = (name: string, dims?: number[]) => {
    const { shape, values } = weight(name);
    return g.floats(name, dims ?? shape, values as Float32Array);
  };
  const dense = (input: string, kernel: string, bias: string, kernelDims?: number[]) =>
    g.node("Add", [g.node("MatMul", [input, param(kernel, kernelDims)]), param(bias)]);

  const maskColumn = g.node("Unsqueeze", [mask, g.ints("axis_last", [-1])]);
  const notPadding = g.node("Sub", [g.scalar("one", 1), mask]);
  const paddingBias = g.node("Unsqueeze", [
    g.node("Mul", [notPadding, g.scalar("ignore_padding", ignorePadding)]),
    g.ints("axes_heads_queries", [1, 2]),
  ]);

  // Token embeddings plus the sinusoid timing signal of each position.
  const embeddings = weight("module/Embeddings_en");
  const embedded = g.node("Gather", [param("module/Embeddings_en"), ids], { axis: 0 });
  const inverseTimescales = floats(
    `${ENCODE}/TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`,
  );
  const width = embeddings.shape[1] as number;
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
  let x = g.node("Mul", [g.node("Add", [g.node("Add", [embedded, embedded]), positions]), maskColumn]);

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

    // Self-attention over the real tokens (padding gets a large negative bias).
    const normed = layerNorm(x, `${own}/layer_prepostprocess/layer_norm`);
    const qkvKernel = weight(`${own}/MultiheadAttention/qkv_transform_single/kernel/part_0`).shape;
    const [inWidth, qkvWidth] = qkvKernel.slice(2) as [number, number];
    const qkv = dense(
      normed,
      `${own}/MultiheadAttention/qkv_transform_single/kernel/part_0`,
      `${own}/MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`,
      [inWidth, qkvWidth],
    );
    const splits = Array.from(weight(`${stack}/MultiheadAttention/Const`).values);
    const [q, k, v] = g.multi("Split", [qkv, g.ints(`split_${layer}`, splits)], 3, { axis: -1 }) as [
      string,
      string,
      string,
    ];
    const headWidth = (splits[0] as number) / heads;
    const toHeads = g.ints(`heads_${layer}`, [0, 0, heads, headWidth]);
    const queries = g.node("Mul", [
      g.node("Transpose", [g.node("Reshape", [q, toHeads])], { perm: [0, 2, 1, 3] }),
      g.scalar(`query_scale_${layer}`, scalar(`${stack}/MultiheadAttention/mul/y`)),
    ]);
    const keys = g.node("Transpose", [g.node("Reshape", [k, toHeads])], { perm: [0, 2, 3, 1] });
    const values = g.node("Transpose", [g.node("Reshape", [v, toHeads])], { perm: [0, 2, 1, 3] });
    const scores = g.node("Softmax", [g.node("Add", [g.node("MatMul", [queries, keys]), paddingBias])], {
      axis: -1,
    });
    const context = g.node("Reshape", [
      g.node("Transpose", [g.node("MatMul", [scores, values])], { perm: [0, 2, 1, 3] }),
      g.ints(`merge_${layer}`, [0, 0, splits[2] as number]),
    ]);
    const outKernel = weight(`${own}/MultiheadAttention/output_transform_single/kernel/part_0`).shape.slice(
      2,
    );
    const attended = dense(
      context,
      `${own}/MultiheadAttention/output_transform_single/kernel/part_0`,
      `${own}/MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`,
      outKernel,
    );
    // Where the layer changes width, the residual goes through a dense projection (applied to real tokens only).
    const residual = weights.has(`${own}/dense/kernel/ConcatPartitions/concat`)
      ? g.node("Mul", [
          dense(
            x,
            `${own}/dense/kernel/ConcatPartitions/concat`,
            `${own}/dense/bias/ConcatPartitions/concat`,
          ),
          maskColumn,
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
    x = g.node("Add", [g.node("Mul", [ffnOut, maskColumn]), x]);
  }

  // Mean over the real tokens (at least one, as tfjs divides by max(count, 1)), then the tanh layer.
  const summed = g.node("ReduceSum", [g.node("Mul", [x, maskColumn]), g.ints("axis_tokens", [1])], {
    keepdims: 0,
  });
  const count = g.node("Max", [
    g.node("ReduceSum", [mask, g.ints("axis_tokens_count", [1])], { keepdims: 1 }),
    g.scalar("at_least_one", 1),
  ]);
  const pooled = g.node("Div", [summed, count]);
  const hiddenWeights = weight("module/Encoder_en/hidden_layers/tanh_layer_0/weights");
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
