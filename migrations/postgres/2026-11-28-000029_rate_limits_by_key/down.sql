CREATE INDEX rate_limits_by_window ON rate_limits (window_start);
