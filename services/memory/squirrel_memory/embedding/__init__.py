"""Text embedding, offline: the contract (`base`: unit-length float32 vectors, loaded in the
background), the shipped model (`minilm`: all-MiniLM-L6-v2, on onnxruntime from `bert_onnx` or
by the NumPy forward pass of `bert`) and the deterministic embedder for tests (`fake`).

Each is imported from its own module, so loading the contract never loads a model runtime."""
