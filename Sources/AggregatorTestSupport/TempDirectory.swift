import Aggregator
