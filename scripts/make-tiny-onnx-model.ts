// Writes a tiny BERT-shaped model folder that @huggingface/transformers loads like a real one: config.json,
// tokenizer.json (WordPiece), tokenizer_config.json and onnx/model.onnx. No registry ships transformer
// weights and Python's onnx package is not installable here, so the ONNX protobuf is written from JS with
// protobufjs. The graph is BERT's embedding layer only:
//   last_hidden_state = (word_embeddings[input_ids] + token_type_embeddings[token_type_ids]) * attention_mask
// Usage: node scripts/make-tiny-onnx-model.ts <folder>
import { join, resolve } from "node:path";
import protobuf from "protobufjs";
import { writeAtomic } from "../src/store/index.ts";

export const TINY_MODEL_HIDDEN_SIZE = 16;

// The subset of onnx.proto (github.com/onnx/onnx, onnx/onnx.proto) this model needs; field numbers as there.
const ONNX_PROTO = `
syntax = "proto3";
package onnx;
message ModelProto {
  int64 ir_version = 1;
  string producer_name = 2;
  GraphProto graph = 7;
  repeated OperatorSetIdProto opset_import = 8;
}
message OperatorSetIdProto { string domain = 1; int64 version = 2; }
message GraphProto {
  repeated NodeProto node = 1;
  string name = 2;
  repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11;
  repeated ValueInfoProto output = 12;
}
message NodeProto {
  repeated string input = 1;
  repeated string output = 2;
  string name = 3;
  string op_type = 4;
  repeated AttributeProto attribute = 5;
}
message AttributeProto { string name = 1; int64 i = 3; int32 type = 20; }
message TensorProto { repeated int64 dims = 1; int32 data_type = 2; string name = 8; bytes raw_data = 9; }
message ValueInfoProto { string name = 1; TypeProto type = 2; }
message TypeProto {
  message Tensor { int32 elem_type = 1; TensorShapeProto shape = 2; }
  Tensor tensor_type = 1;
}
message TensorShapeProto {
  message Dimension { int64 dim_value = 1; string dim_param = 2; }
  repeated Dimension dim = 1;
}
`;

const FLOAT = 1;
const INT64 = 7;
const ATTRIBUTE_INT = 2;

const SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
const WORDS = [
  "the",
  "a",
  "to",
  "for",
  "of",
  "weather",
  "forecast",
  "city",
  "send",
  "email",
  "invoice",
  "create",
];
const LETTERS = [..."abcdefghijklmnopqrstuvwxyz0123456789"];
// Whole words, then every letter alone and as a word-piece continuation, so no lowercase text becomes [UNK].
const VOCABULARY = [...SPECIAL_TOKENS, ...WORDS, ...LETTERS, ...LETTERS.map((letter) => `##${letter}`)];

/** Deterministic pseudo-random weights (a linear congruential generator), so every run writes equal files. */
function weights(count: number, seed: number): Float32Array {
  const values = new Float32Array(count);
  let state = seed;
  for (let i = 0; i < count; i++) {
    state = (state * 1664525 + 1013904223) >>> 0;
    values[i] = state / 2 ** 32 - 0.5;
  }
  return values;
}

function tensorInput(name: string, elemType: number, dims: (string | number)[]) {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((dim) => (typeof dim === "string" ? { dimParam: dim } : { dimValue: dim })) },
      },
    },
  };
}

function floatTensor(name: string, dims: number[], values: Float32Array) {
  return { name, dims, dataType: FLOAT, rawData: new Uint8Array(values.buffer) };
}

function onnxModel(hiddenSize: number): Uint8Array {
  const root = protobuf.parse(ONNX_PROTO).root;
  const ModelProto = root.lookupType("onnx.ModelProto");
  const tokens = ["batch", "sequence"];
  const model = {
    irVersion: 8,
    producerName: "switchboard make-tiny-onnx-model",
    opsetImport: [{ domain: "", version: 14 }],
    graph: {
      name: "tiny-bert-embeddings",
      input: [
        tensorInput("input_ids", INT64, tokens),
        tensorInput("attention_mask", INT64, tokens),
        tensorInput("token_type_ids", INT64, tokens),
      ],
      output: [tensorInput("last_hidden_state", FLOAT, [...tokens, hiddenSize])],
      initializer: [
        floatTensor(
          "word_embeddings",
          [VOCABULARY.length, hiddenSize],
          weights(VOCABULARY.length * hiddenSize, 7),
        ),
        floatTensor("token_type_embeddings", [2, hiddenSize], weights(2 * hiddenSize, 11)),
        {
          name: "last_axis",
          dims: [1],
          dataType: INT64,
          rawData: new Uint8Array(BigInt64Array.of(-1n).buffer),
        },
      ],
      node: [
        { opType: "Gather", input: ["word_embeddings", "input_ids"], output: ["words"], name: "word_lookup" },
        {
          opType: "Gather",
          input: ["token_type_embeddings", "token_type_ids"],
          output: ["types"],
          name: "type_lookup",
        },
        { opType: "Add", input: ["words", "types"], output: ["embedded"], name: "sum" },
        {
          opType: "Cast",
          input: ["attention_mask"],
          output: ["mask_float"],
          name: "mask_to_float",
          attribute: [{ name: "to", i: FLOAT, type: ATTRIBUTE_INT }],
        },
        { opType: "Unsqueeze", input: ["mask_float", "last_axis"], output: ["mask"], name: "mask_per_token" },
        { opType: "Mul", input: ["embedded", "mask"], output: ["last_hidden_state"], name: "apply_mask" },
      ],
    },
  };
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
}

function tokenizerJson() {
  const special = (token: string) => ({ id: token, type_id: 0 });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [
        { SpecialToken: special("[CLS]") },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: special("[SEP]") },
      ],
      pair: [
        { SpecialToken: special("[CLS]") },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: special("[SEP]") },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(
        ["[CLS]", "[SEP]"].map((token) => [
          token,
          { id: token, ids: [VOCABULARY.indexOf(token)], tokens: [token] },
        ]),
      ),
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(VOCABULARY.map((token, id) => [token, id])),
    },
  };
}

/** Writes the model folder and returns its absolute path. */
export async function writeTinyModel(folder: string, hiddenSize = TINY_MODEL_HIDDEN_SIZE): Promise<string> {
  const target = resolve(folder);
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeAtomic(
    join(target, "config.json"),
    json({
      model_type: "bert",
      architectures: ["BertModel"],
      hidden_size: hiddenSize,
      vocab_size: VOCABULARY.length,
      type_vocab_size: 2,
      num_hidden_layers: 0,
      num_attention_heads: 1,
      intermediate_size: hiddenSize,
      max_position_embeddings: 512,
      pad_token_id: 0,
    }),
  );
  await writeAtomic(join(target, "tokenizer.json"), json(tokenizerJson()));
  await writeAtomic(
    join(target, "tokenizer_config.json"),
    json({
      tokenizer_class: "BertTokenizer",
      do_lower_case: true,
      model_max_length: 512,
      cls_token: "[CLS]",
      sep_token: "[SEP]",
      pad_token: "[PAD]",
      unk_token: "[UNK]",
      mask_token: "[MASK]",
      clean_up_tokenization_spaces: true,
    }),
  );
  await writeAtomic(join(target, "onnx", "model.onnx"), onnxModel(hiddenSize));
  return target;
}

if (import.meta.main) {
  const folder = process.argv[2];
  if (!folder) {
    console.error("usage: node scripts/make-tiny-onnx-model.ts <folder>");
    process.exit(2);
  }
  console.log(await writeTinyModel(folder));
}
