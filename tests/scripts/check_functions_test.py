#!/usr/bin/env python3
"""scripts/check_functions.py on small files laid out as clang-format lays them out: a function of 81 lines is
named with its file, line and length; one of 80 lines, lambdas, control blocks and class bodies are not."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "..", "..", "scripts", "check_functions.py")


def function(signature, lines, indent=""):
    """A function whose signature line to closing brace spans `lines` lines."""
    body = [f"{indent}  x += {k};" for k in range(lines - 2)]
    return [f"{indent}{signature} {{"] + body + [f"{indent}}}"]


class CheckFunctions(unittest.TestCase):
    def check(self, lines):
        with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as f:
            f.write("\n".join(lines) + "\n")
        try:
            out = subprocess.run([sys.executable, CHECK, f.name], capture_output=True, text=True)
            return out.returncode, out.stdout.replace(f.name, "F")
        finally:
            os.unlink(f.name)

    def test_eighty_lines_pass(self):
        self.assertEqual(self.check(function("int f(int x)", 80)), (0, ""))

    def test_eighty_one_lines_are_named(self):
        code, out = self.check(["// f.cpp — a test.", ""] + function("int f(int x)", 81))
        self.assertEqual(code, 1)
        self.assertEqual(out, "F:3: 81 lines (at most 80): int f(int x) {\n")

    def test_a_signature_on_two_lines_counts_from_its_first(self):
        lines = ["Result solve(const Matrix& a,", "             Vector& x) {"] + [f"  x += {k};" for k in range(78)] + ["}"]
        code, out = self.check(lines)
        self.assertEqual((code, out), (1, "F:1: 81 lines (at most 80): Result solve(const Matrix& a,\n"))

    def test_a_member_function_in_a_class_is_measured(self):
        lines = ["class C {", " public:"] + function("void run(int x)", 81, "  ") + ["};"]
        code, out = self.check(lines)
        self.assertEqual((code, out), (1, "F:3: 81 lines (at most 80): void run(int x) {\n"))

    def test_long_lambdas_loops_and_namespaces_are_not_functions(self):
        body = [f"    x += {k};" for k in range(90)]
        lines = (["namespace a {", "void f() {", "  run([&](int t) {"] + body + ["  });", "}", "}  // namespace a"])
        code, out = self.check(lines)
        self.assertEqual((code, out), (1, "F:2: 94 lines (at most 80): void f() {\n"))
        lines = ["void g() {", "  for (int i = 0; i < n; ++i) {"] + body[:70] + ["  }", "}"]
        self.assertEqual(self.check(lines), (0, ""))


if __name__ == "__main__":
    unittest.main()
