"""A toy oracle harness for FID-8's known-bad input (see manifest.yaml)."""


def pick_next(queue, budget, running):
    chosen = []
    for request in list(queue):
        if len(running) + len(chosen) >= budget["max_requests"]:
            break
        if request["tokens"] > budget["tokens"]:
            continue
        budget["tokens"] -= request["tokens"]
        chosen.append(request)
    return chosen
