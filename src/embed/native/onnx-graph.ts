// A small builder for ONNX models written from JS: nodes, initializers and the protobuf encoding.
// Python's onnx package is not installable here and no npm package builds ONNX graphs, so the protobuf is
// encoded with protobufjs from the subset of onnx.proto (github.com/onnx/onnx, onnx/onnx.proto) used here.
import protobuf from "protobufjs";

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
  string domain = 7;
}
message AttributeProto {
  string name = 1;
  float f = 2;
  int64 i = 3;
  repeated int64 ints = 8;
  int32 type = 20;
}
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

export const ONNX_FLOAT = 1;
export const ONNX_INT32 = 6;
export const ONNX_INT64 = 7;
/** ONNX Runtime's own operators (fused attention among them), beside the standard ones. */
export const MICROSOFT = "com.microsoft";
const ATTRIBUTE_FLOAT = 1;
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_INTS = 7;

type Attribute = number | number[] | { float: number };

/** Builds one graph: each node call returns the name of its (first) output, so graphs read as expressions. */
export class OnnxGraph {
  private readonly nodes: object[] = [];
  private readonly initializers: object[] = [];
  private readonly inputs: object[] = [];
  private readonly outputs: object[] = [];
  private readonly initializerNames = new Set<string>();
  private counter = 0;

  input(name: string, elemType: number, dims: (string | number)[]): string {
    this.inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  output(name: string, elemType: number, dims: (string | number)[]): void {
    this.outputs.push(valueInfo(name, elemType, dims));
  }

  /** Constants are named by their meaning, so one asked for twice is the same initializer. */
  floats(name: string, dims: number[], values: Float32Array): string {
    if (this.initializerNames.has(name)) return name;
    this.initializerNames.add(name);
    const rawData = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    this.initializers.push({ name, dims, dataType: ONNX_FLOAT, rawData });
    return name;
  }

  ints(name: string, values: number[]): string {
    if (this.initializerNames.has(name)) return name;
    this.initializerNames.add(name);
    const data = BigInt64Array.from(values.map((value) => BigInt(value)));
    this.initializers.push({
      name,
      dims: [values.length],
      dataType: ONNX_INT64,
      rawData: new Uint8Array(data.buffer),
    });
    return name;
  }

  scalar(name: string, value: number): string {
    return this.floats(name, [], Float32Array.of(value));
  }

  node(
    opType: string,
    inputs: string[],
    attributes: Record<string, Attribute> = {},
    output?: string,
  ): string {
    const name = output ?? `${opType.toLowerCase()}_${this.counter++}`;
    this.nodes.push({ opType, name, input: inputs, output: [name], attribute: encodeAttributes(attributes) });
    return name;
  }

  /** A node of ONNX Runtime's com.microsoft domain. */
  contrib(opType: string, inputs: string[], attributes: Record<string, Attribute> = {}): string {
    const name = `${opType.toLowerCase()}_${this.counter++}`;
    const attribute = encodeAttributes(attributes);
    this.nodes.push({ opType, name, domain: MICROSOFT, input: inputs, output: [name], attribute });
    return name;
  }

  /** A node with several outputs (Split). */
  multi(
    opType: string,
    inputs: string[],
    count: number,
    attributes: Record<string, Attribute> = {},
  ): string[] {
    const base = `${opType.toLowerCase()}_${this.counter++}`;
    const output = Array.from({ length: count }, (_, index) => `${base}_${index}`);
    this.nodes.push({ opType, name: base, input: inputs, output, attribute: encodeAttributes(attributes) });
    return output;
  }

  encode(name: string, opset: number): Uint8Array {
    const ModelProto = protobuf.parse(ONNX_PROTO).root.lookupType("onnx.ModelProto");
    const model = {
      irVersion: 8,
      producerName: "switchboard",
      opsetImport: [
        { domain: "", version: opset },
        { domain: MICROSOFT, version: 1 },
      ],
      graph: {
        name,
        node: this.nodes,
        initializer: this.initializers,
        input: this.inputs,
        output: this.outputs,
      },
    };
    return ModelProto.encode(ModelProto.fromObject(model)).finish();
  }
}

function encodeAttributes(attributes: Record<string, Attribute>): object[] {
  return Object.entries(attributes).map(([name, value]) => {
    if (Array.isArray(value)) return { name, ints: value, type: ATTRIBUTE_INTS };
    if (typeof value === "object") return { name, f: value.float, type: ATTRIBUTE_FLOAT };
    return { name, i: value, type: ATTRIBUTE_INT };
  });
}

function valueInfo(name: string, elemType: number, dims: (string | number)[]) {
  const dim = dims.map((value) => (typeof value === "string" ? { dimParam: value } : { dimValue: value }));
  return { name, type: { tensorType: { elemType, shape: { dim } } } };
}
