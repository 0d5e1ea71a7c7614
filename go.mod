module github.com/poisonwatch/poisonwatch

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/sahilm/fuzzy v0.1.3
)
