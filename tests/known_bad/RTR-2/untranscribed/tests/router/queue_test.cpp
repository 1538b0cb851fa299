// pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue_test.go@71f4f099 TestQueueScorer
TEST(QueueScorer, Scores) {}
