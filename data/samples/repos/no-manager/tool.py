import json
import sys

print(json.dumps(sys.argv))
