// Known-bad (SUB-3): the cost model reading a checkpoint's config.json instead of the graph.
#include <fstream>
#include <string>

std::string heads_source(const std::string& model_dir) { return model_dir + "/config.json"; }
