"""The rules of Section 3 as a pure fold over the frame log (no cv2, zmq, vision or tracker)."""
