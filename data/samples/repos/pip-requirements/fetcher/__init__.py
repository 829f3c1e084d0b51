import click
import requests
import yaml


@click.command()
@click.argument("url")
def main(url: str) -> None:
    print(yaml.safe_dump({"status": requests.get(url, timeout=10).status_code}))
