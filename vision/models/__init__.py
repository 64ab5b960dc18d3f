"""Trained networks shipped with the package (ONNX, run by vision.onnxnet).

dice_det.onnx and dice_cls.onnx: the learned d6 reader (vision.learned),
made by scripts/train_dice.py (with dice_cls_medium, dice_lean and
dice_det_touch: docs/vision.md). Other modules' models live here too.
"""
