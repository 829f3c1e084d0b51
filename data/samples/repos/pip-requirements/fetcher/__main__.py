from fetcher import main

main()
