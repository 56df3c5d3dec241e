"""Prints Surefire's totals over every report in a directory as one line .ci/run adds up:
"java: P passed, F failed, S skipped" (errors count as failures)."""
import glob
import os
import sys
import xml.etree.ElementTree as ET

run = failed = skipped = 0
for path in glob.glob(os.path.join(sys.argv[1], "TEST-*.xml")):
    suite = ET.parse(path).getroot()
    run += int(suite.get("tests", 0))
    failed += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
    skipped += int(suite.get("skipped", 0))
print(f"java: {run - failed - skipped} passed, {failed} failed, {skipped} skipped")
