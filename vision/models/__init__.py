"""Trained networks shipped with the package (ONNX, run by cv2.dnn).

dice_det.onnx and dice_cls.onnx: the learned d6 reader (vision.learned),
made by scripts/train_dice.py. Other modules' models live here too.
"""
