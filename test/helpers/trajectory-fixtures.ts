/**
 * Shared pieces of the evaluate / rollout tests: a generated Python repository that imports numpy
 * (not installed in the `python` image) and a script that installs a LOCAL package named numpy
 * (setuptools + wheel come with Debian's pip; no PyPI), so "installs the needed module" works offline.
 */
export const NEEDS_NUMPY = {
  'requirements.txt': 'packaging>=21\n',
  'app/__init__.py': 'import numpy\nfrom packaging.version import Version\n\n\ndef newest(a: str, b: str) -> str:\n    return max(a, b, key=Version)\n',
  'README.md': '# app\n\n```sh\npip install -r requirements.txt\n```\n',
};

export const INSTALL_LOCAL_NUMPY = [
  'mkdir -p /tmp/numpy-local/numpy',
  'echo "__version__ = \\"0.0.local\\"" > /tmp/numpy-local/numpy/__init__.py',
  'printf "from setuptools import setup\\nsetup(name=\\"numpy\\", version=\\"0.0.0\\", packages=[\\"numpy\\"])\\n" > /tmp/numpy-local/setup.py',
  'python -m pip install --no-index --no-build-isolation /tmp/numpy-local',
].join(' && ');
