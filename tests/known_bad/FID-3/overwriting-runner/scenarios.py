"""The known-bad runner's one scenario."""


def designed():
    return [{"name": "designed-one", "config": {}, "requests": []}]
