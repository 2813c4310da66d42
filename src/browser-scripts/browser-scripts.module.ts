import { Module } from '@nestjs/common';
import { BrowserScriptsController } from './browser-scripts.controller';
import { BrowserScriptsService } from './browser-scripts.service';

@Module({ controllers: [BrowserScriptsController], providers: [BrowserScriptsService] })
export class BrowserScriptsModule {}
