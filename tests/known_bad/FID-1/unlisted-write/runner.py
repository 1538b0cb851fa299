# Known-bad input of FID-1 write-outside-listed-site (checks/harness/oracle/check_harness_writes.py): a runner
# whose Oracle.make_scheduler (a listed harness site) writes into the scheduler, and whose Oracle.step_stand_in,
# listed nowhere, does too. The check must name the second write.


class Oracle:
    def __init__(self):
        self.steps = 0  # the runner's own state: not a write into upstream's world

    def make_scheduler(self, scheduler_cls):
        s = object.__new__(scheduler_cls)
        s.enable_overlap = False
        return s

    def step_stand_in(self, s):
        s.forward_ct += 1
        self.steps += 1
