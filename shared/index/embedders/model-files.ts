/**
 * The files transformers.js reads for a feature-extraction model, relative to `<root>/<modelId>/`.
 * One list for the loader's messages and the downloader, so both name the same files.
 */

/** 'fp32' → onnx/model.onnx (what the bridge loads), 'q8' → onnx/model_quantized.onnx. */
export type ModelDtype = 'fp32' | 'q8';

export function onnxFileFor(dtype: ModelDtype): string {
  return dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
}

/** Small files first: the weights' size (from its response) is the last one the progress total waits for. */
export function transformersModelFiles(dtype: ModelDtype): string[] {
  return ['config.json', 'tokenizer_config.json', 'tokenizer.json', onnxFileFor(dtype)];
}
