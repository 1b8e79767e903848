/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Standalone entry point for the module's ns-3 TestSuite: in an ns-3 tree, ns-3's own
 * test-runner links the module's test library; out of a tree this executable plays that part.
 * It accepts the same options, e.g. --suite=mose --verbose.
 */

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
