import requests
from packaging.version import Version


def newer(a: str, b: str) -> bool:
    return Version(a) > Version(b)


def fetch(url: str) -> int:
    return requests.get(url, timeout=10).status_code
