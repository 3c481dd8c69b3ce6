# Thin wrapper over CMake and the scripts (see README.md).
.PHONY: all demo check quick-check clean deps
all:
	cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo && cmake --build build
deps:
	scripts/deps.sh test
demo:
	scripts/demo
check:
	scripts/check
quick-check:
	scripts/check --quick
clean:
	rm -rf build build-asan build-tsan
