"""A toy oracle harness for FID-8's known-bad input of named-or-headed-like-upstream (see manifest.yaml).

Adapted from toy/core/scheduler.py at the pin.
"""


class ToyConfig:
    def __init__(self, max_requests):
        self.max_requests = max_requests


def schedule_waiting(queue, config):
    return list(queue)[: config.max_requests]
