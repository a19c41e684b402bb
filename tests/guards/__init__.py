"""Tests of the guards of issue 23: names, anchors, near misses, the render cap."""
