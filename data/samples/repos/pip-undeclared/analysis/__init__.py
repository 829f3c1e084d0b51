import numpy as np
import requests


def mean_status(urls: list[str]) -> float:
    return float(np.mean([requests.get(u, timeout=10).status_code for u in urls]))
