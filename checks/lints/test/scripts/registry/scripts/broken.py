def write(: # expect: script does not parse (missing `)`): the lint cannot read it
    return 1
