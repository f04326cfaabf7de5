#!/usr/bin/env python3
"""scripts/check_layers.py on the repository (every include keeps the layers' order) and on small trees that break
the order each in one way: a layer including a kernel, a kernel including the library's private src/, the library
including a layer, a header in two places."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
CHECK = os.path.join(ROOT, "scripts", "check_layers.py")
FOLDERS = ("include", "src", "layers", "kernels", "tools", "peers")


def run(root):
    out = subprocess.run([sys.executable, CHECK, root], capture_output=True, text=True)
    return out.returncode, out.stdout + out.stderr


class CheckLayers(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        for folder in FOLDERS:
            os.mkdir(os.path.join(self.dir, folder))
        self.write("include/ulibc/error.hpp", "#pragma once\n")
        self.write("src/os/fs.hpp", "#pragma once\n")
        self.write("layers/graph/csr_graph.hpp", '#include "ulibc/error.hpp"\n')
        self.write("kernels/bfs/bfs.hpp", '#include "graph/csr_graph.hpp"\n#include <vector>\n#include "gen.hpp"\n')
        self.write("tools/ulibc/bench.cpp", '#include "bfs/bfs.hpp"\n#include "commands.hpp"\n')
        self.write("tools/ulibc/commands.hpp", "#pragma once\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, path, text):
        path = os.path.join(self.dir, path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def test_the_repository_keeps_the_order(self):
        code, out = run(ROOT)
        self.assertEqual(code, 0, out)

    def test_a_tree_that_keeps_the_order_passes(self):
        self.assertEqual(run(self.dir), (0, ""))

    def test_a_layer_including_a_kernel_is_named(self):
        self.write("layers/graph/builder.cpp", '#include "bfs/bfs.hpp"\n')
        code, out = run(self.dir)
        self.assertEqual(code, 1)
        self.assertIn('layers/graph/builder.cpp: #include "bfs/bfs.hpp": bfs/bfs.hpp is in kernels/, a layer above '
                      'layers/', out)

    def test_a_kernel_including_the_private_library_is_named(self):
        self.write("kernels/bfs/bfs.cpp", '#include "os/fs.hpp"\n')
        code, out = run(self.dir)
        self.assertEqual(code, 1)
        self.assertIn("os/fs.hpp is the library's private src/os/fs.hpp", out)

    def test_the_library_including_a_layer_is_named(self):
        self.write("src/os/fs.cpp", '#include "graph/csr_graph.hpp"\n')
        code, out = run(self.dir)
        self.assertEqual(code, 1)
        self.assertIn("is in layers/, a layer above src/", out)

    def test_a_header_in_two_places_is_named(self):
        self.write("kernels/graph/csr_graph.hpp", "#pragma once\n")
        code, out = run(self.dir)
        self.assertEqual(code, 1)
        self.assertIn("graph/csr_graph.hpp exists in layers/graph/csr_graph.hpp and kernels/graph/csr_graph.hpp", out)

    def test_a_tree_without_the_folders_is_refused(self):
        shutil.rmtree(os.path.join(self.dir, "peers"))
        code, out = run(self.dir)
        self.assertEqual(code, 2)
        self.assertIn("has no peers/", out)


if __name__ == "__main__":
    unittest.main()
